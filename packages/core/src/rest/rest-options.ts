/** `createVitrina({ rest: { … } })`: the REST surface over the capability runtime. Off unless enabled. */
export interface RestOptions {
  /** Serves every registered capability at `/v1/rest/{capability}` and reports REST as AVAILABLE in the catalog. */
  enabled: boolean;
}

/** Where the capability routes live, under the handler's basePath. */
export const REST_PATH = "/v1/rest";
