import { MESSAGES } from "../../../../shared/messages";

export function HomePage() {
  return (
    <div className="space-y-8">
      <h1 className="text-center text-3xl font-bold text-brand-800">{MESSAGES.homeHeader}</h1>
    </div>
  );
}
