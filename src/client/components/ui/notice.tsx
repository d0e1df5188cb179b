import type { ReactNode } from "react";

/** A warning said in place (not an error): something to fix before it matters. */
export function Notice({ children, testId }: { children: ReactNode; testId?: string }) {
  return (
    <p
      role="note"
      data-testid={testId}
      className="rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900"
    >
      {children}
    </p>
  );
}
