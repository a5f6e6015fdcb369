/**
 * The prompt line: editing keys (←/→, Home/End, Ctrl-A/E/U/K/W, Backspace), ↑/↓ through earlier
 * inputs, Tab completion (candidates listed when there are several), Enter to submit, Ctrl-D on an
 * empty line to leave. Inactive while a turn runs.
 */
import { Box, Text, useInput } from 'ink';
import { useRef, useState, type ReactNode } from 'react';
import type { Completion } from '../../commands/completeInput.js';
import { EMPTY_INPUT, type InputState } from '../inputEditing.js';
import { applyKeyIntents, keyIntents, type InputBoxState } from '../keyIntents.js';
import { colorProp, useTheme } from '../theme.js';

export interface InputBoxProps {
  readonly active: boolean;
  readonly history: readonly string[];
  readonly complete: (text: string) => Completion | undefined;
  readonly onSubmit: (text: string) => void;
  /** Ctrl-D on an empty line. */
  readonly onExit?: () => void;
  readonly placeholder?: string;
}

function Cursor(props: { readonly state: InputState; readonly active: boolean }): ReactNode {
  const { text, cursor } = props.state;
  if (!props.active) return <Text dimColor>{text}</Text>;
  const under = text[cursor];
  const atLineEnd = under === undefined || under === '\n';
  return (
    <Text>
      {text.slice(0, cursor)}
      <Text inverse>{atLineEnd ? ' ' : under}</Text>
      {atLineEnd ? text.slice(cursor) : text.slice(cursor + 1)}
    </Text>
  );
}

const INITIAL: InputBoxState = { input: EMPTY_INPUT, candidates: [], pasting: false };

export function InputBox(props: InputBoxProps): ReactNode {
  const theme = useTheme();
  const [box, setBox] = useState<InputBoxState>(INITIAL);
  // Keys can arrive faster than React re-renders: each one must see the previous one's result.
  const latest = useRef(box);

  useInput(
    (input, key) => {
      const current = latest.current;
      const intents = keyIntents(input, key, { pasting: current.pasting, history: props.history });
      if (intents.length === 0) return;
      const outcome = applyKeyIntents(current, intents, props.complete);
      latest.current = {
        input: outcome.input,
        candidates: outcome.candidates,
        pasting: outcome.pasting,
      };
      setBox(latest.current);
      for (const line of outcome.submitted) props.onSubmit(line);
      if (outcome.exit) props.onExit?.();
    },
    { isActive: props.active },
  );

  const state = box.input;
  const candidates = box.candidates;
  const showPlaceholder = state.text === '' && props.active && props.placeholder !== undefined;
  return (
    <Box flexDirection="column">
      <Box>
        <Text bold {...colorProp(theme, 'blue')}>
          {'> '}
        </Text>
        {showPlaceholder ? (
          <Text>
            <Text inverse> </Text>
            <Text dimColor>{props.placeholder}</Text>
          </Text>
        ) : (
          <Cursor state={state} active={props.active} />
        )}
      </Box>
      {candidates.length > 0 ? <Text dimColor>{candidates.join('  ')}</Text> : null}
    </Box>
  );
}
