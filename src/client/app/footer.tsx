import { COMING_SOON, MESSAGES } from "../../shared/messages";
import { LanguagePicker } from "../features/account/components/language-picker";
import { useAppInfo } from "../lib/app-info";

export function Footer() {
  const { data } = useAppInfo();
  const contact = data?.featureRequestContact;
  return (
    <footer className="border-t border-slate-200 bg-white">
      <div className="mx-auto grid max-w-4xl gap-6 px-4 py-6 text-sm text-slate-700 sm:grid-cols-2">
        <div>
          <h2 className="font-semibold text-slate-900">{MESSAGES.haveAnIdea}</h2>
          <p>
            {MESSAGES.featureRequest}{" "}
            {contact ? (
              <a className="text-brand-700 underline" href={contact}>
                {contact.replace(/^mailto:/, "")}
              </a>
            ) : null}
          </p>
        </div>
        <div>
          <h2 className="font-semibold text-slate-900">{MESSAGES.comingSoon}</h2>
          <ul className="list-disc ps-5">
            {COMING_SOON.map((item) => (
              <li key={item}>{item}</li>
            ))}
          </ul>
        </div>
        <div className="sm:col-span-2 sm:max-w-xs">
          <LanguagePicker />
        </div>
      </div>
    </footer>
  );
}
