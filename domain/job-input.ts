// The shape of an input file a generation carries from the API to its provider: the API fetches and
// stores it (decisions §6) and writes it into the workflow's input; the provider adapters read it
// back. It lives here, below both, so the API need not import activity code for a type.

/** An input file the API fetched and stored (decisions §6), e.g. `image` for `image_url`. */
export interface JobInput {
  storageKey: string;
  contentType: string;
}
