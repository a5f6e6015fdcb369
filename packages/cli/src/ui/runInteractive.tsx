/** Runs the interactive agent in the terminal until the user leaves; resolves to the exit code. */
import { render } from 'ink';
import { EXIT, type ExitCode } from '../cliErrors.js';
import type { CliSession } from '../session/CliSession.js';
import { ChatController } from './ChatController.js';
import { App } from './components/App.js';
import { ThemeProvider, themeFromEnv } from './theme.js';

export interface InteractiveIO {
  readonly stdin: NodeJS.ReadStream;
  readonly stdout: NodeJS.WriteStream;
  readonly stderr: NodeJS.WriteStream;
  readonly env: NodeJS.ProcessEnv;
}

const BRACKETED_PASTE_ON = '\u001b[?2004h';
const BRACKETED_PASTE_OFF = '\u001b[?2004l';

export async function runInteractive(cli: CliSession, io: InteractiveIO): Promise<ExitCode> {
  const controller = new ChatController(cli);
  controller.start();
  // Pastes arrive marked, so their line breaks stay text instead of submitting (see keyIntents).
  if (io.stdout.isTTY) io.stdout.write(BRACKETED_PASTE_ON);
  const app = render(
    <ThemeProvider theme={themeFromEnv(io.env)}>
      <App controller={controller} />
    </ThemeProvider>,
    {
      stdin: io.stdin,
      stdout: io.stdout,
      stderr: io.stderr,
      exitOnCtrlC: false,
      patchConsole: true,
    },
  );
  try {
    await app.waitUntilExit();
  } finally {
    controller.dispose();
    if (io.stdout.isTTY) io.stdout.write(BRACKETED_PASTE_OFF);
  }
  if (cli.recorder.hasFile) {
    const id = cli.session.sessionId;
    io.stdout.write(
      `Session recorded in ${cli.recorder.path}\nResume it with: dense --resume ${id}\n`,
    );
  }
  return EXIT.ok;
}
