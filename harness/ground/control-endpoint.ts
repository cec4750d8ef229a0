/** Where a target's conformance-control API answers: its base URL and bearer token (never logged). */
export interface ControlEndpoint {
  baseUrl: string;
  token: string;
}
