import { type InputHTMLAttributes, useId } from "react";
import { cn } from "../../lib/cn";
import { Input } from "./input";

export interface TextFieldProps extends InputHTMLAttributes<HTMLInputElement> {
  label: string;
  error?: string | undefined;
  /** Styles for dark surfaces (the watch view). */
  tone?: "light" | "dark";
}

/** A labelled input with its validation message, linked for screen readers. */
export function TextField({ label, error, tone = "light", className, ...props }: TextFieldProps) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <div className="grid gap-1 text-start">
      <label
        htmlFor={id}
        className={cn("text-sm font-medium", tone === "dark" ? "text-white" : "text-slate-900")}
      >
        {label}
      </label>
      <Input
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        className={cn(error && "border-red-700", className)}
        {...props}
      />
      {error ? (
        <p
          id={errorId}
          className={cn("text-sm", tone === "dark" ? "text-red-300" : "text-red-700")}
        >
          {error}
        </p>
      ) : null}
    </div>
  );
}
