/**
 * Asks before a write or shell tool runs: what it will do, then y (yes), n (no) or a (always for
 * this tool in this session); ←/→ and Enter work too, Esc means no.
 */
import { Box, Text, useInput } from 'ink';
import { useState, type ReactNode } from 'react';
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
  useInput((input, key) => {
    const byKey = CHOICES.find((choice) => choice.key === input.toLowerCase());
    if (byKey) return props.onAnswer(byKey.decision);
    if (key.escape) return props.onAnswer('no');
    if (key.leftArrow) return setSelected((s) => (s + CHOICES.length - 1) % CHOICES.length);
    if (key.rightArrow || key.tab) return setSelected((s) => (s + 1) % CHOICES.length);
    if (key.return) props.onAnswer(CHOICES[selected]?.decision ?? 'no');
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
