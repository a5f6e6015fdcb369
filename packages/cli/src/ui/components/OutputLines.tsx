/** Lines of command output or notices, each in its tone. */
import { Box, Text } from 'ink';
import type { ReactNode } from 'react';
import type { OutputLine } from '../../commands/types.js';
import { toneProps, useTheme } from '../theme.js';

export function OutputLines(props: { readonly lines: readonly OutputLine[] }): ReactNode {
  const theme = useTheme();
  return (
    <Box flexDirection="column">
      {props.lines.map((line, index) => (
        <Text key={index} {...toneProps(line.tone, theme)}>
          {line.text === '' ? ' ' : line.text}
        </Text>
      ))}
    </Box>
  );
}
