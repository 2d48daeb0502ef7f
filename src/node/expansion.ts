/**
 * Kubernetes' `$(VAR)` expansion (third_party/forked/golang/expansion), used for
 * env values, command and args: `$(NAME)` becomes the variable's value, an
 * unknown reference stays as written, `$$` is a literal `$`.
 */

function readVariable(input: string): { text: string; isVar: boolean; advance: number } {
  if (input[0] === "$") return { text: "$", isVar: false, advance: 1 };
  if (input[0] === "(") {
    const close = input.indexOf(")", 1);
    if (close > 0) return { text: input.slice(1, close), isVar: true, advance: close + 1 };
    return { text: "$(", isVar: false, advance: 1 };
  }
  return { text: `$${input[0]}`, isVar: false, advance: 1 };
}

export function expand(input: string, env: ReadonlyMap<string, string>): string {
  let out = "";
  let checkpoint = 0;
  for (let cursor = 0; cursor < input.length; cursor++) {
    if (input[cursor] !== "$" || cursor + 1 >= input.length) continue;
    out += input.slice(checkpoint, cursor);
    const v = readVariable(input.slice(cursor + 1));
    out += v.isVar ? (env.get(v.text) ?? `$(${v.text})`) : v.text;
    cursor += v.advance;
    checkpoint = cursor + 1;
  }
  return out + input.slice(checkpoint);
}
