// A refusal in words: every code the API answers with (a user error's, or a request's) has a
// sentence in each language; the server's own message, in English, is never shown instead.

import { ApiError } from "./api";
import { t, tOr } from "./i18n";

export function errorText(failure: unknown): string {
  if (failure instanceof ApiError) return tOr(`error.${failure.code}`, t("error.unknown"));
  if (failure instanceof TypeError) return t("error.network"); // fetch could not reach the server
  return t("error.unknown");
}
