/**
 * Asks before a write or shell tool runs: what it will do, then y (yes), n (no) or a (always for
 * this tool in this session); ←/→ and Enter work too, Esc means no.
 */
import { Box, Text, useInput } from 'ink';
import { useRef, useState, type ReactNode } from 'react';
import type { ApprovalDecision, ApprovalRequest } from '@dense/core';
import type { PreviewLine } from '../../format/approvalPreview.js';
import { colorProp, useTheme, type Theme } from '../theme.js';

/** Added lines green, removed red, hunk headers cyan; without colour the +/- prefixes remain. */
export function previewStyle(
  theme: Theme,
  kind: PreviewLine['kind'],
): { readonly color?: string; readonly dimColor?: boolean } {
  if (kind === 'add') return colorProp(theme, 'green');
  if (kind === 'remove') return colorProp(theme, 'red');
  if (kind === 'hunk') return colorProp(theme, 'cyan');
  if (kind === 'info') return { dimColor: true };
  return {};
}

export interface ApprovalPromptProps {
  readonly request: ApprovalRequest;
  /** Diff, new file's first lines or shell command (format/approvalPreview). */
  readonly preview?: readonly PreviewLine[];
  readonly onAnswer: (decision: ApprovalDecision) => void;
}

const CHOICES: readonly {
  readonly decision: ApprovalDecision;
  readonly key: string;
  readonly label: string;
}[] = [
  { decision: 'yes', key: 'y', label: 'yes' },
  { decision: 'no', key: 'n', label: 'no' },
  { decision: 'always', key: 'a', label: 'always for this tool' },
];

export function ApprovalPrompt(props: ApprovalPromptProps): ReactNode {
  const theme = useTheme();
  const [selected, setSelected] = useState(0);
  // Keys may arrive before the next render: read the selection from a ref, not the closure.
  const current = useRef(0);
  const select = (index: number): void => {
    current.current = (index + CHOICES.length) % CHOICES.length;
    setSelected(current.current);
  };
  useInput((input, key) => {
    // "y" and Enter may arrive in one chunk (fast typing, tmux, scripts): the letter decides.
    const typed = input.replace(/[\r\n]+$/, '').toLowerCase();
    const byKey = CHOICES.find((choice) => choice.key === typed);
    if (byKey) return props.onAnswer(byKey.decision);
    if (key.escape) return props.onAnswer('no');
    if (key.leftArrow) return select(current.current - 1);
    if (key.rightArrow || key.tab) return select(current.current + 1);
    if (key.return) props.onAnswer(CHOICES[current.current]?.decision ?? 'no');
  });
  const { request } = props;
  return (
    <Box
      flexDirection="column"
      borderStyle="round"
      paddingX={1}
      {...(theme.color ? { borderColor: 'yellow' } : {})}
    >
      <Text bold {...colorProp(theme, 'yellow')}>
        Allow {request.toolName}? ({request.kind})
      </Text>
      <Text>{request.description}</Text>
      {(props.preview ?? []).map((line, index) => (
        <Text key={index} wrap="truncate-end" {...previewStyle(theme, line.kind)}>
          {line.text}
        </Text>
      ))}
      <Text>
        {CHOICES.map((choice, index) => (
          <Text key={choice.key}>
            {index === 0 ? '' : '   '}
            <Text inverse={index === selected}>
              [{choice.key}] {choice.label}
            </Text>
          </Text>
        ))}
      </Text>
    </Box>
  );
}
