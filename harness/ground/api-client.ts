// The wire client's public shape. Checks talk to a target only through this.

export type Query = Record<string, string | number | boolean | undefined | (string | number)[]>;

export interface ApiRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD' | 'OPTIONS';
  /** Path below the base URL, starting with "/" (e.g. "/v1/campaigns"). */
  path: string;
  query?: Query;
  /** JSON body; sent with Content-Type: application/json. */
  body?: unknown;
  /** A raw body sent as is (for malformed JSON); Content-Type defaults to application/json. */
  rawBody?: string;
  headers?: Record<string, string>;
  /**
   * Authorization: 'key' (default) sends `Bearer <the client's key>`; 'none' sends no header;
   * { header } sends that exact Authorization value (for malformed-header checks).
   */
  auth?: 'key' | 'none' | { header: string };
  idempotencyKey?: string;
  /**
   * The check means to exceed the rate limit: skip the budget, never retry a 429, and do not
   * count a 429 as unplanned.
   */
  rateLimitProbe?: boolean;
  /** Abort after this many ms (default 30 000). */
  timeoutMs?: number;
}

export interface ApiResponse {
  status: number;
  /** Header names lower-cased. */
  headers: Record<string, string>;
  /** Parsed JSON body, or undefined when the body is empty or not JSON. */
  body: any;
  text: string;
  /** Id of the recorded exchange event (evidence for a failure). */
  exchangeId: string;
  durationMs: number;
  /** Exchange ids of earlier attempts answered 429 and retried (absent when none). */
  retriedFrom?: string[];
}

export interface ApiClient {
  readonly baseUrl: string;
  /** The workspace this client's key belongs to, where the kit knows it (scopes the control API's drain). */
  readonly organizationId?: string;
  request(req: ApiRequest): Promise<ApiResponse>;
  get(path: string, query?: Query, opts?: Partial<ApiRequest>): Promise<ApiResponse>;
  post(path: string, body?: unknown, opts?: Partial<ApiRequest>): Promise<ApiResponse>;
  patch(path: string, body?: unknown, opts?: Partial<ApiRequest>): Promise<ApiResponse>;
  put(path: string, body?: unknown, opts?: Partial<ApiRequest>): Promise<ApiResponse>;
  delete(path: string, opts?: Partial<ApiRequest>): Promise<ApiResponse>;
  /** The same target, workspace budget and recorder, another key (or none). */
  withKey(key: string | null): ApiClient;
  /** The same client, exchanges attributed to this check id. */
  forCheck(checkId: string): ApiClient;
}
