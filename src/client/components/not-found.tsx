import { Link } from "wouter";
import { MESSAGES } from "../../shared/messages";
import { useDocumentTitle } from "../lib/use-document-title";

/**
 * The one "not found" layout: an unknown path (the server answers it with 404 too), a memory that
 * is gone or hidden, and a profile that is missing or private. Only the message differs.
 */
export function NotFound({
  message = MESSAGES.notFoundPage,
  title = MESSAGES.pageNotFoundTitle,
}: {
  message?: string;
  title?: string;
}) {
  useDocumentTitle(title);
  return (
    <div className="mx-auto max-w-xl space-y-6 py-16 text-center" data-testid="not-found">
      <h1 className="text-2xl font-bold text-balance text-slate-900">{message}</h1>
      <Link
        href="/"
        className="inline-flex h-11 items-center rounded-md px-4 text-sm font-medium text-brand-700 underline underline-offset-2 hover:bg-brand-100"
      >
        {MESSAGES.returnToHome}
      </Link>
    </div>
  );
}
