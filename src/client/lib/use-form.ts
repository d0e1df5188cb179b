import { type FormEvent, useState } from "react";
import type { z } from "zod";
import { type FieldErrors, validateForm } from "./form-errors";

/**
 * Form state validated by a shared schema on submit; errors clear as a field changes. Every form of
 * text fields uses it. The forms that hold something else keep their own state: a file (restore a
 * backup), nested settings (reminders), a memory's tags beside its regeneration (edit memory),
 * dates checked as they are typed (memory book), and the typed "delete" that toasts instead of
 * marking a field (typed-delete-dialog).
 */
export function useForm<S extends z.ZodType<unknown, Record<string, unknown>>>(
  schema: S,
  initial: Record<string, string>,
  onValid: (data: z.output<S>) => void,
) {
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<FieldErrors>({});
  const field = (name: string) => ({
    name,
    value: values[name] ?? "",
    error: errors[name],
    onChange: (event: { target: { value: string } }) => {
      const value = event.target.value;
      setValues((v) => ({ ...v, [name]: value }));
      setErrors((e) => ({ ...e, [name]: undefined }));
    },
  });
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const result = validateForm(schema, values);
    if (!result.ok) {
      setErrors(result.errors);
      return;
    }
    setErrors({});
    onValid(result.data);
  };
  const reset = () => {
    setValues(initial);
    setErrors({});
  };
  return { values, errors, field, onSubmit, reset };
}
