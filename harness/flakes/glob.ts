// Pure: match project-relative paths against a glob such as 'harness/load/**' or
// 'harness/*/histogram.test.ts'. `**` spans folders, `*` and `?` stay inside one, `{a,b}` is either.

export function globToRegExp(glob: string): RegExp {
  let re = '';
  let braces = 0;
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*' && glob[i + 1] === '*') {
      const slash = glob[i + 2] === '/';
      re += slash ? '(?:.*/)?' : '.*'; // 'a/**/b' also matches 'a/b'
      i += slash ? 2 : 1;
    } else if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else if (c === '{') {
      re += '(?:';
      braces++;
    } else if (c === '}' && braces > 0) {
      re += ')';
      braces--;
    } else if (c === ',' && braces > 0) re += '|';
    else re += c.replace(/[.+^$()|[\]\\]/g, '\\$&');
  }
  if (braces > 0) throw new Error(`glob "${glob}" opens a { it does not close`);
  return new RegExp(`^${re}$`);
}

/** The files matching the glob; a leading './' on either side is ignored. */
export function matchFiles(files: string[], glob: string): string[] {
  const re = globToRegExp(glob.replace(/^\.\//, ''));
  return files.filter((f) => re.test(f.replace(/^\.\//, '')));
}
