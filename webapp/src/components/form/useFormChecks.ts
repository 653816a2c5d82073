import type { ParseKeys } from 'i18next';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSubmitThrottle } from './useSubmitThrottle';

/** The values validation messages interpolate (limits of amounts and lengths). */
export interface MessageValues {
  limit?: string;
  min?: string;
  max?: string;
}

/** What is wrong with a form: the field to mark and the message (with its values). */
export interface FormProblem<Field extends string> {
  field: Field;
  key: ParseKeys;
  values?: MessageValues;
}

/** One check, in the order the form reads: the field, and its message key when it fails (null when fine). */
export type FormCheck<Field extends string> = readonly [Field, ParseKeys | null, MessageValues?];

export interface FormChecks<Field extends string> {
  problem: FormProblem<Field> | null;
  setProblem: (problem: FormProblem<Field> | null) => void;
  /**
   * Marks the first failed check and returns false; with none, clears the mark and returns
   * whether the submit throttle lets the request go (a failed check is not a submission).
   * `{ throttle: false }` only checks (before sending an SMS code, which has its own countdown).
   */
  ready: (checks: readonly FormCheck<Field>[], options?: { throttle: boolean }) => boolean;
  invalid: (field: Field) => boolean;
  /** The form's one message: the problem's text, else what the server said. */
  message: (serverMessage: string | null | undefined) => string | null;
  /** Opens the throttle window by hand (a request sent from a confirmation step); false within it. */
  gate: () => boolean;
  /** Within the throttle window after a submission. */
  blocked: boolean;
}

/** The validate-then-submit shape every form shares: first failure shown, one request per 500 ms. */
export function useFormChecks<Field extends string>(): FormChecks<Field> {
  const { t } = useTranslation();
  const throttle = useSubmitThrottle();
  const [problem, setProblem] = useState<FormProblem<Field> | null>(null);
  return {
    problem,
    setProblem,
    ready: (checks, options = { throttle: true }) => {
      const failed = checks.find(([, key]) => key !== null);
      if (failed?.[1]) {
        setProblem({ field: failed[0], key: failed[1], ...(failed[2] ? { values: failed[2] } : {}) });
        return false;
      }
      setProblem(null);
      return options.throttle ? throttle.gate() : true;
    },
    invalid: (field) => problem?.field === field,
    message: (serverMessage) => {
      if (!problem) return serverMessage ?? null;
      return problem.values ? t(problem.key, { ...problem.values }) : t(problem.key);
    },
    gate: throttle.gate,
    blocked: throttle.blocked,
  };
}
