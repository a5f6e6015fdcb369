/**
 * Asks before a write or shell tool runs: what it will do, then y (yes), n (no) or a (always for
 * this tool in this session); ←/→ and Enter work too, Esc means no.
 */
import { Box, Text, useInput } from 'ink';
import { useRef, useState, type ReactNode } from 'react';
import type { ApprovalDecision, ApprovalRequest } from '@dense/core';
import { colorProp, useTheme } from '../theme.js';

export interface ApprovalPromptProps {
  readonly request: ApprovalRequest;
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
