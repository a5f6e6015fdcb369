/**
 * The interactive agent: conversation, approval prompt, status, input and footer, driven by a
 * ChatController. Ctrl-C cancels the running turn; a second Ctrl-C, or one while idle, exits.
 */
import { Box, Text, useApp, useInput } from 'ink';
import { useCallback, useEffect, useState, useSyncExternalStore, type ReactNode } from 'react';
import { completeInput } from '../../commands/completeInput.js';
import type { ChatController } from '../ChatController.js';
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

function StatusLine(props: { readonly cancelling: boolean }): ReactNode {
  return (
    <Text dimColor>
      {props.cancelling ? 'cancelling… (Ctrl-C again to exit)' : 'working… (Ctrl-C to cancel)'}
    </Text>
  );
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
        <ApprovalPrompt request={state.approval} onAnswer={(d) => controller.answerApproval(d)} />
      ) : null}
      {state.busy && state.approval === undefined ? (
        <StatusLine cancelling={state.cancelling} />
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
