/**
 * kube-apiserver's `--token-auth-file`: CSV lines `token,user,uid[,"group1,group2"]`
 * (Go's encoding/csv: quoted fields, `""` for a quote, blank lines skipped).
 * A line with fewer than three columns is an error; an empty token is skipped.
 */
import { readFileSync } from "node:fs";
import type { UserInfo } from "./types.js";

/** Splits CSV text into records of fields. */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let fields: string[] = [];
  let field = "";
  let quoted = false;
  let fieldStarted = false;
  const endRecord = () => {
    if (fields.length > 0 || fieldStarted || field !== "") {
      fields.push(field);
      records.push(fields);
    }
    fields = [];
    field = "";
    fieldStarted = false;
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"' && field === "") {
      quoted = true;
      fieldStarted = true;
    } else if (c === ",") {
      fields.push(field);
      field = "";
      fieldStarted = true;
    } else if (c === "\n" || c === "\r") {
      if (c === "\r" && text[i + 1] === "\n") i++;
      endRecord();
    } else field += c;
  }
  if (quoted) throw new Error('extraneous or missing " in quoted-field');
  endRecord();
  return records;
}

/** Token → user. Throws with kube's wording for a short line. */
export function parseTokenFile(text: string, path = "token file"): Map<string, UserInfo> {
  const tokens = new Map<string, UserInfo>();
  for (const record of parseCsv(text)) {
    if (record.length < 3) {
      throw new Error(
        `token file '${path}' must have at least 3 columns (token, user name, user uid), found ${record.length}`,
      );
    }
    const [token, username, uid, groups] = record as [string, string, string, string?];
    if (token === "") continue;
    tokens.set(token, {
      username,
      ...(uid !== "" ? { uid } : {}),
      groups: (groups ?? "").split(",").filter((g) => g !== ""),
    });
  }
  return tokens;
}

export function loadTokenFile(path: string): Map<string, UserInfo> {
  return parseTokenFile(readFileSync(path, "utf8"), path);
}
