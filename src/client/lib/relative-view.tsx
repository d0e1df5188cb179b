import { useQuery } from "@tanstack/react-query";
import { createContext, type ReactNode, useContext, useEffect, useState } from "react";
import { SHARED_WITH_ME_SCRIPT_ID } from "../../shared/constants";
import { type SharedWithMe, sharedWithMeSchema } from "../../shared/schemas";
import { useUser } from "../features/auth/api/get-user";
import { getJson } from "./api-client";

export const SHARED_WITH_ME_PATH = "/api/shared-with-me";

const RelativeView = createContext<{ relative: boolean; mark: () => void }>({
  relative: false,
  mark: () => {},
});

/**
 * Whether this tab is a relative's, come through a share link: they listen and answer without an
 * account, so the top bar leaves out Log in and Sign up for them. Set by the shared view at once;
 * on every other page (a memory book's QR code, a news mail) the server says whose memories this
 * browser's share links open (useSharedWithMe).
 */
export function RelativeViewProvider({ children }: { children: ReactNode }) {
  const [relative, setRelative] = useState(false);
  const [value] = useState(() => ({ mark: () => setRelative(true) }));
  return (
    <RelativeView.Provider value={{ relative, mark: value.mark }}>{children}</RelativeView.Provider>
  );
}

/**
 * What the server put in the page it served a logged-out browser (what GET /api/shared-with-me
 * would answer), or undefined when the page holds none. Taken as the server wrote it, as the
 * session user is.
 */
function embeddedSharedWithMe(): SharedWithMe | undefined {
  const text = document.getElementById(SHARED_WITH_ME_SCRIPT_ID)?.textContent;
  if (!text) return undefined;
  try {
    const value = JSON.parse(text) as SharedWithMe;
    return Array.isArray(value?.owners) ? value : undefined;
  } catch {
    return undefined;
  }
}

function useSharedWithMeQuery() {
  const { data: user } = useUser();
  const query = useQuery({
    queryKey: ["shared-with-me"],
    queryFn: () => getJson(SHARED_WITH_ME_PATH, sharedWithMeSchema),
    initialData: embeddedSharedWithMe,
    enabled: user === null,
    staleTime: 5 * 60_000,
  });
  return { user, query };
}

/**
 * The owners whose memories this browser's share links open, asked only of a browser nobody is
 * logged in on (an owner has their own menu); undefined until known.
 */
export function useSharedWithMe(): SharedWithMe["owners"] | undefined {
  const { user, query } = useSharedWithMeQuery();
  return user === null ? query.data?.owners : undefined;
}

/**
 * Whether this tab is a relative's; undefined while a logged-out browser waits to learn it (the
 * page it was served usually says at once), so Log in is never shown and then taken back. An
 * answer that failed counts as a stranger's.
 */
export function useIsRelativeView(): boolean | undefined {
  const marked = useContext(RelativeView).relative;
  const { user, query } = useSharedWithMeQuery();
  if (marked) return true;
  if (user !== null) return false;
  if (query.isError) return false;
  return query.data ? query.data.owners.length > 0 : undefined;
}

/** Marks this tab as a relative's once `shared` is true (a profile seen through a share link). */
export function useMarkRelativeView(shared: boolean): void {
  const { mark } = useContext(RelativeView);
  useEffect(() => {
    if (shared) mark();
  }, [shared, mark]);
}
