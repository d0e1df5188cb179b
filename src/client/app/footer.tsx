import { COMING_SOON } from "../../shared/messages";
import { useAppInfo } from "../lib/app-info";

export function Footer() {
  const { data } = useAppInfo();
  const contact = data?.featureRequestContact;
  return (
    <footer className="border-t border-slate-200 bg-white">
      <div className="mx-auto grid max-w-4xl gap-6 px-4 py-6 text-sm text-slate-700 sm:grid-cols-2">
        <div>
          <h2 className="font-semibold text-slate-900">Have an idea?</h2>
          <p>
            Send us a feature request:{" "}
            {contact ? (
              <a className="text-brand-700 underline" href={contact}>
                {contact.replace(/^mailto:/, "")}
              </a>
            ) : null}
          </p>
        </div>
        <div>
          <h2 className="font-semibold text-slate-900">Coming soon</h2>
          <ul className="list-disc pl-5">
            {COMING_SOON.map((item) => (
              <li key={item}>{item}</li>
            ))}
          </ul>
        </div>
      </div>
    </footer>
  );
}
