/** A bind of a host path into a container: what volumes prepare and runtimes mount. */
export interface Mount {
  source: string;
  target: string;
  readOnly: boolean;
}
