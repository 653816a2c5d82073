// Generated from CopyButton.module.css (its classes); app/styles.test.ts keeps the two in step.
declare const styles: {
  readonly 'copy': string;
};
export default styles;
