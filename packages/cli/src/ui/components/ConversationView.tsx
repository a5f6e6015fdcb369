/**
 * The conversation: finished items printed once above (ink's Static, so long sessions do not
 * re-render), the running turn's items below them.
 */
import { Box, Static, Text } from 'ink';
import type { ReactNode } from 'react';
import type { IncludedFile } from '../../at/expandAtReferences.js';
import type { Conversation, ConversationItem, ToolStatus } from '../conversation.js';
import { colorProp, useTheme, type Theme } from '../theme.js';
import { ContextView } from './ContextView.js';
import { OutputLines } from './OutputLines.js';

const TOOL_MARKS: Readonly<Record<ToolStatus, string>> = {
  running: '⋯',
  done: '✓',
  error: '✗',
  denied: '⊘',
  cancelled: '⊘',
};

const TOOL_COLORS: Readonly<Record<ToolStatus, string>> = {
  running: 'yellow',
  done: 'green',
  error: 'red',
  denied: 'yellow',
  cancelled: 'yellow',
};

function includedSize(file: IncludedFile): string {
  const lines = (n: number): string => `${n} line${n === 1 ? '' : 's'}`;
  return file.truncated ? `first ${file.lines} of ${lines(file.totalLines)}` : lines(file.lines);
}

function UserItem(props: {
  readonly item: Extract<ConversationItem, { kind: 'user' }>;
  readonly theme: Theme;
}): ReactNode {
  const { item, theme } = props;
  return (
    <Box flexDirection="column" marginTop={1}>
      <Text bold {...colorProp(theme, 'blue')}>
        {'> '}
        {item.text}
      </Text>
      {item.included.map((file) => (
        <Box key={file.path} paddingLeft={2}>
          <Text dimColor>
            + {file.path} ({includedSize(file)})
          </Text>
        </Box>
      ))}
    </Box>
  );
}

function ToolItem(props: {
  readonly item: Extract<ConversationItem, { kind: 'tool' }>;
  readonly theme: Theme;
}): ReactNode {
  const { item, theme } = props;
  const showDetail = item.detail !== undefined && item.status !== 'done' && item.detail !== '';
  return (
    <Box flexDirection="column">
      <Text>
        <Text {...colorProp(theme, TOOL_COLORS[item.status])}>{TOOL_MARKS[item.status]} </Text>
        <Text bold>{item.name}</Text>
        {item.target === '' ? '' : ` ${item.target}`}
        {item.status === 'denied' ? ' (denied)' : item.status === 'cancelled' ? ' (cancelled)' : ''}
      </Text>
      {showDetail ? (
        <Box paddingLeft={2}>
          <Text dimColor>{item.detail}</Text>
        </Box>
      ) : null}
    </Box>
  );
}

export function ConversationItemView(props: {
  readonly item: ConversationItem;
  readonly width: number;
}): ReactNode {
  const theme = useTheme();
  const { item } = props;
  switch (item.kind) {
    case 'user':
      return <UserItem item={item} theme={theme} />;
    case 'assistant':
      return (
        <Box marginTop={1} flexDirection="column">
          <Text dimColor={item.discarded === true}>{item.text.replace(/^\n+/, '')}</Text>
          {item.discarded === true ? (
            <Text {...colorProp(theme, 'yellow')}>
              ⊘ reply discarded: it was cut off and is not in the history
            </Text>
          ) : null}
        </Box>
      );
    case 'tool':
      return <ToolItem item={item} theme={theme} />;
    case 'lines':
      return <OutputLines lines={item.lines} />;
    case 'context':
      return (
        <ContextView
          report={item.report}
          switches={item.switches}
          width={props.width}
          {...(item.prompt ? { prompt: item.prompt } : {})}
          {...(item.workspaceRoot === undefined ? {} : { workspaceRoot: item.workspaceRoot })}
        />
      );
  }
}

export function ConversationView(props: {
  readonly conversation: Conversation;
  readonly width: number;
}): ReactNode {
  const { conversation, width } = props;
  return (
    <>
      <Static items={[...conversation.done]}>
        {(item) => (
          <Box key={item.id} width={width}>
            <ConversationItemView item={item} width={width} />
          </Box>
        )}
      </Static>
      {conversation.live.map((item) => (
        <Box key={item.id} width={width}>
          <ConversationItemView item={item} width={width} />
        </Box>
      ))}
    </>
  );
}
