/** A page for the hub's operators that a plugin serves, so the other operator pages can link to it. */
export interface OperatorPage {
  /** What the link says. */
  title: string;
  /** The page's path under the hub (the prefix it is embedded under is added where it is linked). */
  path: string;
  /**
   * What waits for the operator there now, in one line ("2 tool changes await approval"),
   * or undefined: the status page shows it among what needs attention, with the link.
   */
  attention?(): Promise<string | undefined>;
  /**
   * A search the status page offers for this page: a GET form of one text field, named
   * `field`, sent to `path` (tool-search's search over every server's tools).
   */
  search?: { label: string; field: string; maxLength: number };
}
