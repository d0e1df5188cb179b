import { createContext, type ReactNode, useContext, useEffect, useState } from "react";

const RelativeView = createContext<{ relative: boolean; mark: () => void }>({
  relative: false,
  mark: () => {},
});

/**
 * Whether this tab is a relative's, come through a share link: they listen and answer without an
 * account, so the top bar leaves out Log in and Sign up for them. Set by the shared view.
 */
export function RelativeViewProvider({ children }: { children: ReactNode }) {
  const [relative, setRelative] = useState(false);
  const [value] = useState(() => ({ mark: () => setRelative(true) }));
  return (
    <RelativeView.Provider value={{ relative, mark: value.mark }}>{children}</RelativeView.Provider>
  );
}

export function useIsRelativeView(): boolean {
  return useContext(RelativeView).relative;
}

/** Marks this tab as a relative's once `shared` is true (a profile seen through a share link). */
export function useMarkRelativeView(shared: boolean): void {
  const { mark } = useContext(RelativeView);
  useEffect(() => {
    if (shared) mark();
  }, [shared, mark]);
}
