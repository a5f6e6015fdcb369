/** One line of command output and its tone: what commands return and the shell renders. */
export type LineTone = 'normal' | 'heading' | 'info' | 'success' | 'warning' | 'error' | 'dim';

export interface OutputLine {
  readonly text: string;
  readonly tone?: LineTone;
}
