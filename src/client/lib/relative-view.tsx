import { useQuery } from "@tanstack/react-query";
import { createContext, type ReactNode, useContext, useEffect, useState } from "react";
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
 * The owners whose memories this browser's share links open, asked only of a browser nobody is
 * logged in on (an owner has their own menu); undefined until known.
 */
export function useSharedWithMe(): SharedWithMe["owners"] | undefined {
  const { data: user } = useUser();
  const { data } = useQuery({
    queryKey: ["shared-with-me"],
    queryFn: () => getJson(SHARED_WITH_ME_PATH, sharedWithMeSchema),
    enabled: user === null,
    staleTime: 5 * 60_000,
  });
  return user === null ? data?.owners : undefined;
}

export function useIsRelativeView(): boolean {
  const marked = useContext(RelativeView).relative;
  const owners = useSharedWithMe();
  return marked || (owners?.length ?? 0) > 0;
}

/** Marks this tab as a relative's once `shared` is true (a profile seen through a share link). */
export function useMarkRelativeView(shared: boolean): void {
  const { mark } = useContext(RelativeView);
  useEffect(() => {
    if (shared) mark();
  }, [shared, mark]);
}
