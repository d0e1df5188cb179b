import { type FormEvent, useState } from "react";
import type { z } from "zod";
import { type FieldErrors, validateForm } from "./form-errors";

/**
 * Form state validated by a shared schema on submit; errors clear as a field changes. With
 * `asTyped`, the schema's errors show while the person types instead (the memory book's dates).
 * Every form of text fields uses it, except these, which keep their own state:
 * - restore a backup: its one value is a file, with nothing to check but that one is chosen;
 * - reminders and edit memory: the server checks them and its answer is toasted (no field errors);
 * - the typed-delete dialog: a wrong Enter toasts instead of marking its one field.
 */
export function useForm<S extends z.ZodType<unknown, Record<string, unknown>>>(
  schema: S,
  initial: Record<string, string>,
  onValid: (data: z.output<S>) => void,
  { asTyped = false }: { asTyped?: boolean } = {},
) {
  const [values, setValues] = useState(initial);
  const [submitted, setErrors] = useState<FieldErrors>({});
  const typed = asTyped ? validateForm(schema, values) : null;
  const errors = typed ? (typed.ok ? {} : typed.errors) : submitted;
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
