import { Link } from "wouter";
import { MESSAGES } from "../../../../shared/messages";
import { useUser } from "../../auth/api/get-user";
import { Recorder } from "../../recorder/components/recorder";

export function WatchPage() {
  const { data: user } = useUser();
  return (
    <main className="flex min-h-screen flex-col items-center justify-center gap-6 bg-slate-900 p-4">
      <div className="flex h-[340px] w-[280px] flex-col items-center gap-4 rounded-[3rem] border-8 border-slate-700 bg-black p-6 text-white">
        <h1 className="text-lg font-semibold">{MESSAGES.watchTitle}</h1>
        {user && (
          <div data-testid="watch-recorder-slot" className="w-full">
            <Recorder kind="memory" variant="watch" />
          </div>
        )}
      </div>
      <Link href="/" className="rounded-md bg-white px-4 py-2 text-sm font-medium text-slate-900">
        {MESSAGES.backToFullApp}
      </Link>
    </main>
  );
}
