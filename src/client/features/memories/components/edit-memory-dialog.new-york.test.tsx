import { vi } from "vitest";

// Before anything reads the clock: this file runs in New York (UTC-5, UTC-4 in summer).
vi.hoisted(() => {
  process.env.TZ = "America/New_York";
});

import { describe } from "vitest";
import { dateRoundTripTests } from "./edit-memory-dialog.tz";

describe("Edit Memory date in America/New_York", () => {
  dateRoundTripTests("America/New_York", 240, [
    // Summer time (UTC-4).
    {
      recordedAt: "2024-06-01T12:30:00.000Z",
      shown: "2024-06-01T08:30",
      typed: "2024-06-02T23:15",
      saved: "2024-06-03T03:15:00.000Z",
    },
    // Winter time (UTC-5), across midnight UTC.
    {
      recordedAt: "2024-01-15T02:05:00.000Z",
      shown: "2024-01-14T21:05",
      typed: "2024-01-14T21:06",
      saved: "2024-01-15T02:06:00.000Z",
    },
  ]);
});
