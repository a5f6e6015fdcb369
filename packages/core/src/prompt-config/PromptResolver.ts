/** Where prompt text comes from: a user's override file if present, else the shipped default. */

/** Facts a prompt may be specialised on. */
export interface PromptContext {
  readonly provider: string;
  readonly model: string;
  readonly workspaceRoot: string;
}

export interface PromptResolver {
  /**
   * The text of prompt file `relativePath` (e.g. `compression.md`), looked up first under the
   * user's prompt directory and then under `baseDir` (the shipped defaults). Throws a typed error
   * naming the file when neither exists or it cannot be read.
   */
  resolveFile(
    baseDir: string,
    relativePath: string,
    context: Readonly<Partial<PromptContext>>,
  ): Promise<string>;
}
