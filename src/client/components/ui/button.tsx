import { type ButtonHTMLAttributes, forwardRef } from "react";
import { cn } from "../../lib/cn";

type Variant = "primary" | "secondary" | "ghost" | "destructive" | "outline";

const VARIANTS: Record<Variant, string> = {
  primary: "bg-brand-700 text-white hover:bg-brand-800",
  secondary: "bg-brand-100 text-brand-800 hover:bg-brand-50",
  ghost: "bg-transparent text-slate-800 hover:bg-brand-100",
  destructive: "bg-red-700 text-white hover:bg-red-800",
  outline: "border border-slate-300 bg-white text-slate-900 hover:bg-slate-50",
};

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: Variant;
  /**
   * `round`: the watch view's large one-tap circle. `icon` and `tap` are 44 px square at least,
   * a thumb's target on a phone (`tap`: a short text label such as a page number).
   */
  size?: "sm" | "md" | "lg" | "icon" | "tap" | "round";
}

export const Button = forwardRef<HTMLButtonElement, ButtonProps>(function Button(
  { className, variant = "primary", size = "md", type = "button", ...props },
  ref,
) {
  return (
    <button
      ref={ref}
      type={type}
      className={cn(
        "inline-flex items-center justify-center gap-2 font-medium transition-colors disabled:pointer-events-none disabled:opacity-50",
        // One rounding per size: class names are joined, not merged, so two would fight.
        size === "round" ? "h-24 w-24 flex-col rounded-full text-sm" : "rounded-md",
        size === "sm" && "h-8 px-3 text-sm",
        size === "md" && "h-10 px-4 text-sm",
        size === "lg" && "h-12 px-6 text-base",
        size === "icon" && "h-11 w-11 shrink-0",
        size === "tap" && "h-11 min-w-11 shrink-0 px-3 text-sm",
        VARIANTS[variant],
        className,
      )}
      {...props}
    />
  );
});
