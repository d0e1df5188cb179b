import { type ReactNode, type SelectHTMLAttributes, useId } from "react";
import { cn } from "../../lib/cn";

export interface SelectFieldProps
  extends Omit<SelectHTMLAttributes<HTMLSelectElement>, "onChange" | "value"> {
  label: string;
  value: string;
  onChange: (value: string) => void;
  /** Said under the select and read with it (what the chosen option means). */
  hint?: ReactNode;
  /** The label is read by screen readers only, where the options say what it is (the top bar). */
  hideLabel?: boolean;
  children: ReactNode;
}

/** A labelled native select, 44 px tall: a thumb's target, and the phone's own picker. */
export function SelectField({
  label,
  value,
  onChange,
  hint,
  hideLabel = false,
  className,
  children,
  ...props
}: SelectFieldProps) {
  const id = useId();
  const hintId = `${id}-hint`;
  return (
    <div className="grid gap-1 text-start">
      <label
        htmlFor={id}
        className={cn("text-sm font-medium text-slate-900", hideLabel && "sr-only")}
      >
        {label}
      </label>
      <select
        id={id}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        aria-describedby={hint ? hintId : undefined}
        className={cn(
          "h-11 rounded-md border border-slate-300 bg-white px-3 text-sm text-slate-900 disabled:opacity-50",
          className,
        )}
        {...props}
      >
        {children}
      </select>
      {hint ? (
        <p id={hintId} className="text-sm text-slate-700">
          {hint}
        </p>
      ) : null}
    </div>
  );
}
