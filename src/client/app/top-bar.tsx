import { Link } from "wouter";
import { APP_TITLE } from "../../shared/messages";

export function TopBar() {
  return (
    <header className="border-b border-slate-200 bg-white">
      <nav
        aria-label="Main"
        className="mx-auto flex max-w-4xl items-center justify-between gap-4 px-4 py-3"
      >
        <Link href="/" className="text-lg font-bold text-brand-800">
          {APP_TITLE}
        </Link>
        <div className="flex items-center gap-2" data-testid="session-controls" />
      </nav>
    </header>
  );
}
