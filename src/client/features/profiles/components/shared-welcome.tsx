import { Headphones, Mic } from "lucide-react";
import { RELATIVES, sharedWelcomeTitle } from "../../../../shared/relatives";

/** What a relative who came through a share link reads first: who shared, and what they can do. */
export function SharedWelcome({ name }: { name: string }) {
  return (
    <section
      aria-labelledby="shared-welcome-title"
      data-testid="shared-welcome"
      className="space-y-2 rounded-xl border border-brand-500/40 bg-white p-4 shadow-sm text-slate-800"
    >
      <h2 id="shared-welcome-title" className="text-lg font-semibold text-slate-900">
        {sharedWelcomeTitle(name)}
      </h2>
      <p className="flex items-start gap-2">
        <Headphones className="mt-0.5 h-5 w-5 shrink-0" aria-hidden="true" />
        {RELATIVES.welcomeListen}
      </p>
      <p className="flex items-start gap-2">
        <Mic className="mt-0.5 h-5 w-5 shrink-0" aria-hidden="true" />
        {RELATIVES.welcomeAnswer}
      </p>
    </section>
  );
}
