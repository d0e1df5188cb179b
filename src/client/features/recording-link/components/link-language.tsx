import { useState } from "react";
import {
  isLanguage,
  LANGUAGE_NAMES,
  LANGUAGES,
  type Language,
} from "../../../../shared/i18n/languages";
import { MESSAGES } from "../../../../shared/messages";
import { SelectField } from "../../../components/ui/select-field";
import { toastError } from "../../../components/ui/use-toast";
import { reloadPage } from "../../../lib/language";
import { chooseLinkLanguage } from "../api/recording-page";

/**
 * On a storyteller's link page: the language it speaks (theirs, else the journal's), each named in
 * itself. Choosing one keeps it for their link and reloads the page speaking it.
 */
export function LinkLanguage({ token, language }: { token: string; language: Language }) {
  const [saving, setSaving] = useState(false);
  const choose = async (value: string) => {
    if (!isLanguage(value) || value === language) return;
    setSaving(true);
    try {
      await chooseLinkLanguage(token, value);
      reloadPage();
    } catch (error) {
      setSaving(false);
      toastError(MESSAGES.languageFailed, error);
    }
  };
  return (
    <div className="mx-auto max-w-xs" data-testid="link-language">
      <SelectField
        label={MESSAGES.language}
        value={language}
        disabled={saving}
        onChange={(value) => void choose(value)}
      >
        {LANGUAGES.map((option) => (
          <option key={option} value={option} lang={option}>
            {LANGUAGE_NAMES[option]}
          </option>
        ))}
      </SelectField>
    </div>
  );
}
