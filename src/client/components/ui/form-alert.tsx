import { useEffect, useRef } from "react";
import { errorMessage } from "../../lib/api-client";

/**
 * A form's failure, said inside the form (a dialog's, for one): announced as an alert and focused,
 * so focus stays in the dialog and the first Escape closes it. A toast would sit above the dialog
 * and take that Escape. The words are the product's (`errorMessage`). Each new failure (a new
 * error object) takes focus again.
 */
export function FormAlert({ title, error }: { title: string; error: unknown }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (error) ref.current?.focus();
  }, [error]);
  if (!error) return null;
  return (
    <div
      ref={ref}
      role="alert"
      tabIndex={-1}
      className="rounded-md border border-red-300 bg-red-50 px-4 py-3 text-sm text-red-800 focus:outline-none focus-visible:ring-2 focus-visible:ring-red-700"
    >
      <p className="font-semibold">{title}</p>
      <p>{errorMessage(error)}</p>
    </div>
  );
}
