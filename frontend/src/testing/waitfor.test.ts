import { test, expect, vi } from "vitest";
// The setup file (waitfor.ts) gives every wait 5 s: one that comes true
// after 2 s passes, where vi.waitFor's own default gave up at 1 s.
test("a wait past 1 s still comes true", async () => {
  const t0 = Date.now();
  await vi.waitFor(() => expect(Date.now() - t0).toBeGreaterThan(2000));
});
