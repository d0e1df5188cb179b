import type { ReactNode } from "react";
import { RelativeGreeting } from "../features/profiles/components/relative-greeting";
import { Footer } from "./footer";
import { OfflineNote } from "./offline-note";
import { TopBar } from "./top-bar";

export function Layout({ children }: { children: ReactNode }) {
  return (
    <div className="flex min-h-screen flex-col">
      <TopBar />
      <OfflineNote />
      <RelativeGreeting />
      <main id="main" className="mx-auto w-full max-w-4xl flex-1 px-4 py-8">
        {children}
      </main>
      <Footer />
    </div>
  );
}
