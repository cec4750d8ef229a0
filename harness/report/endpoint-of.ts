// The endpoint a recorded request went to, named as check ids name it: the spec's path template
// ("GET /v1/campaigns/{id}"), or a referenced operation by its id ("POST <apikeys.create>") at the
// path the target's profile gives it. Paths are matched segment by segment at the end of the URL's
// path (a target may serve the API under a prefix), the most literal template first, so a failure
// names the endpoint of its evidence whatever ids its message quotes.

import { ENDPOINTS } from '../ground/spec-model/endpoints.ts';

interface Template {
  method: string;
  segments: string[];
  /** Segments that are not parameters: /v1/campaigns/analytics/overview before /v1/campaigns/{id}/status. */
  literal: number;
  label: string;
}

const segmentsOf = (path: string) => path.split('/').filter((s) => s !== '');
const isParam = (segment: string) => segment.startsWith('{') && segment.endsWith('}');

function template(method: string, path: string, label: string): Template {
  const segments = segmentsOf(path);
  return { method: method.toUpperCase(), segments, literal: segments.filter((s) => !isParam(s)).length, label };
}

const CATALOG: Template[] = ENDPOINTS.flatMap((e) => (e.path ? [template(e.method, e.path, `${e.method} ${e.path}`)] : []));

/** The referenced operations a profile places (`operations.<id>.method/path`), as loaded into results.json. */
function profileTemplates(profile: unknown): Template[] {
  const ops = (profile as { operations?: Record<string, { method?: unknown; path?: unknown }> } | null)?.operations ?? {};
  return Object.entries(ops).flatMap(([id, op]) => (typeof op?.method === 'string' && typeof op.path === 'string' ? [template(op.method, op.path, `${op.method.toUpperCase()} <${id}>`)] : []));
}

function matches(t: Template, method: string, segments: readonly string[]): boolean {
  if (t.method !== method || t.segments.length > segments.length) return false;
  const tail = segments.slice(segments.length - t.segments.length);
  return t.segments.every((s, i) => isParam(s) || s === tail[i]);
}

/** A namer of requests for one run's profile: `name(method, url)` is the endpoint's label, else undefined. */
export function endpointNamer(profile: unknown): (method: string, url: string) => string | undefined {
  const templates = [...profileTemplates(profile), ...CATALOG].sort((a, b) => b.literal - a.literal);
  return (method, url) => {
    let pathname: string;
    try {
      pathname = new URL(url).pathname;
    } catch {
      return undefined;
    }
    return templates.find((t) => matches(t, method.toUpperCase(), segmentsOf(pathname)))?.label;
  };
}
