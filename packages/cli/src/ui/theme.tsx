/**
 * Colours, or none: with `NO_COLOR` set (to anything non-empty) no component adds colour, and every
 * status also has a symbol or word, so nothing depends on colour to be understood.
 */
import { createContext, useContext, type ReactNode } from 'react';
import type { TextProps } from 'ink';
import type { LineTone } from '../commands/types.js';

export interface Theme {
  readonly color: boolean;
}

export function themeFromEnv(env: NodeJS.ProcessEnv): Theme {
  const noColor = env.NO_COLOR;
  return { color: noColor === undefined || noColor === '' };
}

const ThemeContext = createContext<Theme>({ color: true });

export function ThemeProvider(props: {
  readonly theme: Theme;
  readonly children: ReactNode;
}): ReactNode {
  return <ThemeContext.Provider value={props.theme}>{props.children}</ThemeContext.Provider>;
}

export function useTheme(): Theme {
  return useContext(ThemeContext);
}

const TONE_COLORS: Readonly<Record<LineTone, string | undefined>> = {
  normal: undefined,
  heading: 'cyan',
  info: 'cyan',
  success: 'green',
  warning: 'yellow',
  error: 'red',
  dim: undefined,
};

/** Text props for a tone: bold headings and dim text always; colour only when allowed. */
export function toneProps(tone: LineTone | undefined, theme: Theme): TextProps {
  const props: { color?: string; bold?: boolean; dimColor?: boolean } = {};
  const color = TONE_COLORS[tone ?? 'normal'];
  if (theme.color && color !== undefined) props.color = color;
  if (tone === 'heading') props.bold = true;
  if (tone === 'dim') props.dimColor = true;
  return props;
}

/** A colour prop, or nothing under NO_COLOR. */
export function colorProp(theme: Theme, color: string): { readonly color?: string } {
  return theme.color ? { color } : {};
}
