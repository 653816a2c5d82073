import './form.css';

/** The one message of a form: the first failed check, or the server's answer. */
export function FormMessage({ message }: { message: string | null | undefined }) {
  return (
    <p className="form__message" role="alert">
      {message ?? ''}
    </p>
  );
}
