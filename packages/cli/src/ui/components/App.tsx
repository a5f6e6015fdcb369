/**
 * The interactive agent: conversation, approval prompt, status, input and footer, driven by a
 * ChatController. Ctrl-C cancels the running turn; a second Ctrl-C, or one while idle, exits.
 */
import { Box, Text, useApp, useInput } from 'ink';
import { useCallback, useEffect, useState, useSyncExternalStore, type ReactNode } from 'react';
import { completeInput } from '../../commands/completeInput.js';
import { describeRetry } from '../../format/describeRetry.js';
import type { ChatController, UiState } from '../ChatController.js';
import { colorProp, useTheme } from '../theme.js';
import { useTerminalWidth } from '../useTerminalWidth.js';
import { ApprovalPrompt } from './ApprovalPrompt.js';
import { ConversationView } from './ConversationView.js';
import { Footer } from './Footer.js';
import { InputBox } from './InputBox.js';

export interface AppProps {
  readonly controller: ChatController;
}

/** Lines typed ahead, shown until they run. */
function QueuedLines(props: { readonly queued: readonly string[] }): ReactNode {
  if (props.queued.length === 0) return null;
  return (
    <Box flexDirection="column">
      {props.queued.map((line, index) => (
        <Text key={index} dimColor wrap="truncate-end">
          queued: {line}
        </Text>
      ))}
    </Box>
  );
}

/** Re-renders every half second while `active`, so countdowns tick; returns the time now. */
function useTicker(active: boolean): number {
  const [, setTick] = useState(0);
  useEffect(() => {
    if (!active) return undefined;
    const timer = setInterval(() => setTick((tick) => tick + 1), 500);
    return () => clearInterval(timer);
  }, [active]);
  return Date.now();
}

function StatusLine(props: {
  readonly cancelling: boolean;
  readonly retry: UiState['retry'];
}): ReactNode {
  const theme = useTheme();
  const now = useTicker(props.retry !== undefined);
  if (props.cancelling) return <Text dimColor>cancelling… (Ctrl-C again to exit)</Text>;
  if (props.retry !== undefined) {
    return (
      <Text {...colorProp(theme, 'yellow')}>
        {describeRetry(props.retry.notice, props.retry.until - now)} (Ctrl-C to cancel)
      </Text>
    );
  }
  return <Text dimColor>working… (Ctrl-C to cancel)</Text>;
}

export function App(props: AppProps): ReactNode {
  const { controller } = props;
  const { exit } = useApp();
  const state = useSyncExternalStore(controller.subscribe, controller.getState);
  const width = useTerminalWidth();
  const [history, setHistory] = useState<readonly string[]>([]);

  useEffect(() => {
    if (state.quit && !state.busy) exit();
  }, [state.quit, state.busy, exit]);

  useInput((input, key) => {
    if (!(key.ctrl && input === 'c')) return;
    if (state.busy && !state.cancelling && controller.cancel()) return;
    exit();
  });

  const submit = useCallback(
    (text: string) => {
      setHistory((previous) => (previous.at(-1) === text ? previous : [...previous, text]));
      void controller.submit(text);
    },
    [controller],
  );
  const complete = useCallback(
    (text: string) => completeInput(text, { profileNames: state.profileNames }),
    [state.profileNames],
  );

  return (
    <Box flexDirection="column" width={width}>
      <ConversationView conversation={state.conversation} width={width} />
      {state.approval ? (
        <ApprovalPrompt
          request={state.approval}
          preview={state.preview}
          onAnswer={(d) => controller.answerApproval(d)}
        />
      ) : null}
      {state.busy && state.approval === undefined ? (
        <StatusLine cancelling={state.cancelling} retry={state.retry} />
      ) : null}
      <QueuedLines queued={state.busy ? state.queued : []} />
      <Box marginTop={1} flexDirection="column">
        <InputBox
          active={state.approval === undefined}
          history={history}
          complete={complete}
          onSubmit={submit}
          onExit={state.busy ? undefined : exit}
          placeholder={state.busy ? 'type ahead: it runs after this turn' : 'Ask, or type /help'}
        />
        <Footer stats={state.footer} width={width} />
      </Box>
    </Box>
  );
}
