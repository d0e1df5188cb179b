import { onlineManager, QueryObserver } from "@tanstack/react-query";
import { waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createQueryClient } from "./query-client";

describe("the query client", () => {
  afterEach(() => onlineManager.setOnline(true));

  it("knows a page opened with no connection is offline, and fetches once the connection returns", async () => {
    // The installed app opens offline from its cached shell (ADR 0016); no 'offline' event fires then.
    const onLine = vi.spyOn(navigator, "onLine", "get").mockReturnValue(false);
    const client = createQueryClient();
    client.mount();
    const queryFn = vi.fn(async () => "the user");
    const observer = new QueryObserver(client, { queryKey: ["/api/user"], queryFn });
    const unsubscribe = observer.subscribe(() => {});
    expect(observer.getCurrentResult().fetchStatus).toBe("paused");
    expect(queryFn).not.toHaveBeenCalled();

    onLine.mockReturnValue(true);
    window.dispatchEvent(new Event("online"));
    await waitFor(() => expect(observer.getCurrentResult().data).toBe("the user"));
    expect(queryFn).toHaveBeenCalledTimes(1);
    unsubscribe();
    client.unmount();
  });
});
