import react from "@vitejs/plugin-react";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: "server",
          environment: "node",
          include: [
            "src/server/**/*.test.ts",
            "src/shared/**/*.test.ts",
            "scripts/**/*.test.ts",
            "docs/**/*.test.ts",
          ],
          setupFiles: ["src/server/test/setup.ts"],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        plugins: [react()],
        test: {
          name: "client",
          environment: "jsdom",
          include: ["src/client/**/*.test.{ts,tsx}"],
          setupFiles: ["src/client/test/setup.ts"],
          testTimeout: 20_000,
        },
      },
      {
        test: {
          name: "e2e",
          environment: "node",
          include: ["e2e/**/*.test.ts"],
          fileParallelism: false,
          // Concurrent tests in one file (the languages' journeys) run three at a time.
          maxConcurrency: 3,
          testTimeout: 120_000,
          hookTimeout: 120_000,
          // A page in a real browser can take more than expect.poll's default second to show what
          // it fetched when the machine is busy (a CI run): the value is still asserted, only
          // given time to arrive.
          expect: { poll: { timeout: 10_000 } },
        },
      },
    ],
  },
});
