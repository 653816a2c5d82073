import { digitsOnly } from '../../features/account/validation';
import { TextField } from './TextField';

interface PinFieldProps {
  label: string;
  name: string;
  value: string;
  invalid: boolean;
  placeholder: string;
  onChange: (value: string) => void;
}

/** A 6-digit secret (fund password): digits only, masked with a show button, numeric keyboard. */
export function PinField({ onChange, ...props }: PinFieldProps) {
  return (
    <TextField
      {...props}
      revealable
      inputMode="numeric"
      autoComplete="off"
      maxLength={6}
      onChange={(value) => {
        onChange(digitsOnly(value).slice(0, 6));
      }}
    />
  );
}
