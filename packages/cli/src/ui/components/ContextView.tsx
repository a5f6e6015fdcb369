/** The `/context` breakdown (see contextReportLines), framed and fitted to the terminal width. */
import { Box } from 'ink';
import type { ReactNode } from 'react';
import type { ContextReport, DensityPassSwitches } from '@dense/core';
import type { PromptTokens } from '../../format/contextExtraLines.js';
import { contextReportLines } from '../../format/contextReportLines.js';
import { OutputLines } from './OutputLines.js';

export interface ContextViewProps {
  readonly report: ContextReport;
  readonly switches?: DensityPassSwitches;
  readonly width: number;
  readonly clock?: (at: number) => string;
  readonly prompt?: PromptTokens;
  readonly workspaceRoot?: string;
}

export function ContextView(props: ContextViewProps): ReactNode {
  const barWidth = Math.max(5, Math.min(20, props.width - 60));
  const lines = contextReportLines(props.report, {
    barWidth,
    width: props.width,
    ...(props.switches ? { switches: props.switches } : {}),
    ...(props.clock ? { clock: props.clock } : {}),
    ...(props.prompt ? { prompt: props.prompt } : {}),
    ...(props.workspaceRoot === undefined ? {} : { workspaceRoot: props.workspaceRoot }),
  });
  return (
    <Box
      flexDirection="column"
      marginTop={1}
      paddingLeft={1}
      borderStyle="single"
      borderRight={false}
      borderTop={false}
      borderBottom={false}
    >
      <OutputLines lines={lines} />
    </Box>
  );
}
