import { MESSAGES } from "../../shared/messages";

export function NotFoundPage() {
  return (
    <div className="mx-auto max-w-xl py-16 text-center">
      <h1 className="text-2xl font-bold text-slate-900">{MESSAGES.notFoundPage}</h1>
    </div>
  );
}
