import { vi } from "vitest";

/**
 * vi.waitFor gives up after 1 s by default. The suite runs beside Go
 * builds and browsers on two shared cores, where a render the test waits
 * for can take longer, and a test that fails only then says nothing about
 * the code. Every wait therefore gets 5 s unless it names its own
 * timeout: a wait that never comes true still fails, only later.
 */
const waitFor = vi.waitFor;
vi.waitFor = ((callback, options) =>
  waitFor(callback, typeof options === "number" ? options : { timeout: 5000, ...options })) as typeof vi.waitFor;
