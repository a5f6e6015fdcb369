/** A tiny test harness: register with `test`, run them all with `run`. */
const tests = [];

export function test(name, fn) {
  tests.push({ name, fn });
}

export async function run() {
  let failed = 0;
  for (const { name, fn } of tests) {
    try {
      await fn();
      console.log(`ok   ${name}`);
    } catch (error) {
      failed++;
      console.log(`FAIL ${name}\n     ${String(error.message).split('\n').join('\n     ')}`);
    }
  }
  console.log(`\n${tests.length - failed} passed, ${failed} failed`);
  return failed;
}
