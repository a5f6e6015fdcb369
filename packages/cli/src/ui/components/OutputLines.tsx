/**
 * Lines of command output or notices, each in its tone. Leading spaces become a hanging indent, so
 * a wrapped line stays aligned on narrow terminals; errors and warnings carry a mark, so they
 * read as such without colour.
 */
import { Box, Text } from 'ink';
import type { ReactNode } from 'react';
import type { OutputLine } from '../../commands/types.js';
import { toneProps, useTheme } from '../theme.js';

const MARKS: Partial<Record<NonNullable<OutputLine['tone']>, string>> = {
  error: '✗ ',
  warning: '! ',
};

export function OutputLines(props: { readonly lines: readonly OutputLine[] }): ReactNode {
  const theme = useTheme();
  return (
    <Box flexDirection="column">
      {props.lines.map((line, index) => {
        const text = line.text.trimStart();
        const indent = line.text.length - text.length;
        const mark = line.tone === undefined ? '' : (MARKS[line.tone] ?? '');
        return (
          <Box key={index} paddingLeft={indent}>
            <Text {...toneProps(line.tone, theme)}>{text === '' ? ' ' : `${mark}${text}`}</Text>
          </Box>
        );
      })}
    </Box>
  );
}
