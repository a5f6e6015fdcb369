/**
 * The recall archive for `dense recall`'s fast entry point, loaded without `@dense/core`'s index
 * (which loads the proxy, the strategies and the provider code: ~0.4 s of start-up). The package
 * exports only its index, so its recall and paths modules are imported by URL, next to the index
 * the package resolves to (`dist/` when built, `src/` under tsx); when that fails (a layout this
 * does not know, a runner without `import.meta.resolve`) the index is imported as usual.
 */
import type { getDensePaths, RecallArchive, recallMissingMessage } from '@dense/core';
import { gatewayRecallLookup } from './gatewayRecallLookup.js';
import type { ImageOriginalPart } from './imageOriginal.js';
import type { RecallLookup } from './runRecall.js';

interface RecallModules {
  readonly RecallArchive: typeof RecallArchive;
  readonly recallMissingMessage: typeof recallMissingMessage;
  readonly getDensePaths: typeof getDensePaths;
  /** Core's `recalledImageParts` (its recall module's; absent from an index that lacks it). */
  readonly recalledImageParts?: (text: string) => readonly ImageOriginalPart[] | undefined;
}

function isRecallModules(value: Partial<RecallModules>): value is RecallModules {
  return (
    typeof value.RecallArchive === 'function' &&
    typeof value.recallMissingMessage === 'function' &&
    typeof value.getDensePaths === 'function'
  );
}

async function directModules(): Promise<Partial<RecallModules>> {
  const index = import.meta.resolve('@dense/core');
  const [recall, paths] = await Promise.all([
    import(new URL('./recall/index.js', index).href) as Promise<Partial<RecallModules>>,
    import(new URL('./utils/paths.js', index).href) as Promise<Partial<RecallModules>>,
  ]);
  return { ...recall, ...paths };
}

async function recallModules(): Promise<RecallModules> {
  try {
    const direct = await directModules();
    if (isRecallModules(direct)) return direct;
  } catch {
    // Any failure here only costs start-up time: the index has the same exports.
  }
  return import('@dense/core');
}

/**
 * The archive `dense proxy` writes, for `env` (`DENSE_HOME` or the platform's data dir); a
 * gateway's, over HTTP, when `DENSE_PROXY_URL` is set (`gatewayRecallLookup.ts`).
 */
export async function loadRecallArchive(env: NodeJS.ProcessEnv): Promise<RecallLookup> {
  const gateway = gatewayRecallLookup(env);
  if (gateway !== undefined) return gateway;
  const modules = await recallModules();
  const archive = new modules.RecallArchive({ dir: modules.getDensePaths(env).recallDir });
  const images = modules.recalledImageParts;
  return {
    dir: archive.dir,
    lookup: (id) => archive.lookup(id),
    missingMessage: modules.recallMissingMessage,
    ...(typeof images === 'function' ? { imageParts: images } : {}),
  };
}
