/** The terminal's width in columns, updated when it is resized (80 when unknown). */
import { useStdout } from 'ink';
import { useEffect, useState } from 'react';

export function useTerminalWidth(): number {
  const { stdout } = useStdout();
  const [width, setWidth] = useState(stdout.columns || 80);
  useEffect(() => {
    const onResize = (): void => setWidth(stdout.columns || 80);
    stdout.on('resize', onResize);
    return () => {
      stdout.off('resize', onResize);
    };
  }, [stdout]);
  return width;
}
