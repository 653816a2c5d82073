// Generated from modal.module.css (its classes); app/styles.test.ts keeps the two in step.
declare const styles: {
  readonly 'dialog-page__button': string;
  readonly 'dialog-page__content': string;
  readonly 'iframe-page': string;
  readonly 'iframe-page__device': string;
  readonly 'iframe-page__frame': string;
  readonly 'iframe-page__hint': string;
  readonly 'modal-page': string;
  readonly 'modal-page--dim': string;
  readonly 'share-page__actions': string;
  readonly 'share-page__canvas': string;
  readonly 'update-card': string;
  readonly 'update-card__actions': string;
  readonly 'update-card__note': string;
  readonly 'update-card__remark': string;
  readonly 'update-card__title': string;
  readonly 'update-card__version': string;
  readonly 'webview-page': string;
  readonly 'webview-page__frame': string;
  readonly 'webview-page__open': string;
};
export default styles;
