/**
 * The status line: model, strategy, context used of the limit as a bar and a percentage, and the
 * tokens density has reclaimed this session. Two lines on narrow terminals.
 */
import { Box, Text } from 'ink';
import type { ReactNode } from 'react';
import { formatCompact, formatPercent } from '../../format/formatTokens.js';
import { usageBar } from '../../format/usageBar.js';
import type { FooterStats } from '../footerStats.js';
import { colorProp, useTheme } from '../theme.js';

export interface FooterProps {
  readonly stats: FooterStats;
  readonly width: number;
}

function usageColor(fraction: number): string {
  if (fraction >= 0.85) return 'red';
  if (fraction >= 0.6) return 'yellow';
  return 'green';
}

export function Footer(props: FooterProps): ReactNode {
  const theme = useTheme();
  const { stats, width } = props;
  const fraction = stats.contextLimit > 0 ? stats.usedTokens / stats.contextLimit : 0;
  const narrow = width < 72;
  const barWidth = narrow ? Math.max(4, Math.min(12, width - 30)) : 12;
  const who = `${stats.model} · ${stats.strategy}${stats.profile === undefined ? '' : ` · ${stats.profile}`}`;
  const usage = `${formatCompact(stats.usedTokens)}/${formatCompact(stats.contextLimit)} ${formatPercent(fraction)}`;
  const reclaimed = `density −${formatCompact(stats.reclaimedTokens)}`;
  const yolo =
    stats.yolo === true ? (
      <Text bold inverse={!theme.color} {...colorProp(theme, 'red')}>
        YOLO{' '}
      </Text>
    ) : null;
  const bar = (
    <Text {...colorProp(theme, usageColor(fraction))}>{usageBar(fraction, barWidth)}</Text>
  );
  if (narrow) {
    return (
      <Box flexDirection="column">
        <Text wrap="truncate-end">
          {yolo}
          <Text dimColor>{who}</Text>
        </Text>
        <Text wrap="truncate-end">
          {bar} <Text>{usage}</Text> <Text dimColor>· {reclaimed}</Text>
        </Text>
      </Box>
    );
  }
  return (
    <Text wrap="truncate-end">
      {yolo}
      <Text dimColor>{who}</Text>
      <Text dimColor> │ </Text>
      <Text>ctx </Text>
      {bar}
      <Text> {usage}</Text>
      <Text dimColor> │ {reclaimed} tokens</Text>
    </Text>
  );
}
